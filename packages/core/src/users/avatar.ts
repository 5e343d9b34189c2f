import { createHash } from 'node:crypto'

/** Maps a user to an avatar URL. The default is Gravatar's identicon; an option may replace it. */
export type AvatarResolver = (user: { id: number, email: string }) => string

/** URLs by email already hashed: a page of tickets embeds dozens of people, often the same ones. */
const gravatarUrls = new Map<string, string>()
const GRAVATAR_CACHE_SIZE = 10_000

export const gravatar: AvatarResolver = (user) => {
  const email = user.email.trim().toLowerCase()
  let url = gravatarUrls.get(email)
  if (url === undefined) {
    url = `https://www.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}?d=identicon`
    if (gravatarUrls.size >= GRAVATAR_CACHE_SIZE) gravatarUrls.delete(gravatarUrls.keys().next().value as string)
    gravatarUrls.set(email, url)
  }
  return url
}
