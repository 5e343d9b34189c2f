import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { linkWith, requestLink } from '../src/http/list-request.js'

/** What the links were built with before: the whole URL parsed by `new URL` for every response. */
function parsed (request: { url: string, protocol: 'http' | 'https', host: string }, name: string, value: string): { path: string, link: string } {
  const url = new URL(request.url, `${request.protocol}://${request.host}`)
  url.searchParams.set(name, value)
  return { path: `${url.origin}${url.pathname}`, link: url.toString() }
}

const urls = [
  '/api/v1/tickets',
  '/api/v1/tickets?page=2',
  '/api/v1/tickets?filter%5Bstatus%5D=1,2&sort=-created_at&page=3&per_page=5',
  '/api/v1/tickets?filter[search]=a b&include=user,category',
  '/api/v1/tickets?filter%5Bsearch%5D=caf%C3%A9+au+lait&page=1',
  '/api/v1/tickets?filter[search]=café "quoted" <tag> \'x\'',
  '/api/v1/tickets?filter[search]=100%25&x=%zz&&y=',
  '/api/v1/tickets?filter[search]=a%26b%3Dc&cursor=eyJpZCI6M30',
  '/api/v1/./tickets/../tickets?page=9',
  '/api/v1/t%69ckets?sort=id',
  '/api/v1/tickets/?',
  '/api/v1/tickets?page=1&page=2'
]
const hosts = ['127.0.0.1:3000', 'Example.COM', 'example.com:80', 'helpdesk.example.com:443', '[::1]:8080']

describe('page links', () => {
  it('are what parsing the whole request URL gave, for odd paths, queries and hosts, first parse or cached', () => {
    for (const host of hosts) {
      for (const protocol of ['http', 'https'] as const) {
        for (const url of urls) {
          for (let twice = 0; twice < 2; twice++) {
            const request = { url, protocol, host }
            const link = requestLink(request)
            const page = parsed(request, 'page', '4')
            assert.equal(link.path, page.path, `${protocol}://${host}${url}`)
            assert.equal(linkWith(link, 'page', '4'), page.link, `${protocol}://${host}${url}`)
            assert.equal(linkWith(requestLink(request), 'cursor', 'eyJ9'), parsed(request, 'cursor', 'eyJ9').link)
          }
        }
      }
    }
  })
})
