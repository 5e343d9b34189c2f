import { createHash } from 'node:crypto'

/** Maps a user to an avatar URL. The default is Gravatar's identicon; an option may replace it. */
export type AvatarResolver = (user: { id: number, email: string }) => string

export const gravatar: AvatarResolver = (user) => {
  const hash = createHash('md5').update(user.email.trim().toLowerCase()).digest('hex')
  return `https://www.gravatar.com/avatar/${hash}?d=identicon`
}
