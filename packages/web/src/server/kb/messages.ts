/** Every text of the server-rendered knowledge-base pages (English), in one place for translation. */
export const kbMessages = {
  knowledgeBase: 'Knowledge base',
  skipToContent: 'Skip to content',
  searchLabel: 'Search articles',
  searchButton: 'Search',
  searchTitle: (q: string) => `Search: ${q}`,
  searchResults: (count: number, q: string) => count === 0
    ? `No articles match “${q}”.`
    : count === 1 ? `1 article matches “${q}”.` : `${count} articles match “${q}”.`,
  searchPrompt: 'Type a few words to search the articles.',
  collectionsDescription: (site: string) => `Answers and guides from ${site}: browse the collections or search the articles.`,
  collectionDescription: (name: string, count: number) => `${count} article${count === 1 ? '' : 's'} in ${name}.`,
  noCollections: 'There are no articles to read yet.',
  noArticles: 'This collection has no published articles yet.',
  otherCategory: 'Other',
  breadcrumb: 'Breadcrumb',
  updated: 'Updated',
  notFoundTitle: 'Page not found',
  notFoundText: 'There is no page at this address, or you may not read it. Signed-in readers may see more.',
  backToKb: 'Back to the knowledge base',
  tooManyTitle: 'Too many requests',
  tooManyText: (seconds: number) => `This address asked for too many pages in a short time. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  console: 'Open the help desk',
  signIn: 'Sign in',
  signedInAs: (name: string) => `Signed in as ${name}`
} as const
