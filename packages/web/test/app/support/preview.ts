/**
 * A console preview for looking at screens by hand or from a browser script: seeds a fresh SQLite
 * help desk with a few tickets, runs `helpdesk serve --port 0` (which serves the console at /), and
 * prints its URL. With PREVIEW_PROXY=1 it serves dist/app itself (SPA fallback, strict CSP) on another
 * port and proxies the API to the help desk, to look at the app without the server plugin.
 *   node --import tsx packages/web/test/app/support/preview.ts  -> prints {url, api}
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { mkdtempSync, readFileSync, existsSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, extname, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '../../../../..')
const appDir = resolve(here, '../../../dist/app')
const bin = join(repo, 'packages/cli/bin/helpdesk.js')

const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html; charset=utf-8', '.svg': 'image/svg+xml' }

export interface Preview { url: string, api: string, close: () => Promise<void> }

async function startHelpdesk (dir: string): Promise<{ child: ChildProcess, url: string }> {
  const env = { ...process.env, HELPDESK_DATABASE_URL: `sqlite:${join(dir, 'helpdesk.sqlite')}`, HELPDESK_STORAGE_DIR: join(dir, 'storage'), HELPDESK_RATE_LIMIT: '0' }
  execFileSync(process.execPath, [bin, 'seed'], { cwd: dir, env, stdio: 'ignore' })
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--json', '--no-rate-limit'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((ok, fail) => {
    let buffer = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const line = buffer.split('\n').find((l) => l.startsWith('{"url"'))
      if (line !== undefined) ok((JSON.parse(line) as { url: string }).url)
    })
    child.on('exit', (code) => { fail(new Error(`helpdesk serve exited with ${code}`)) })
  })
  return { child, url: new URL(url).origin }
}

function staticServer (upstream: string): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (path.startsWith('/api/') || path.startsWith('/kb') || path === '/sitemap.xml') {
      const target = new URL(req.url ?? '/', upstream)
      const proxied = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      proxied.on('error', () => { res.writeHead(502).end() })
      req.pipe(proxied)
      return
    }
    let file = join(appDir, path)
    if (!file.startsWith(appDir) || !existsSync(file) || statSync(file).isDirectory()) file = join(appDir, 'index.html')
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https://www.gravatar.com; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
    })
    res.end(readFileSync(file))
  })
}

async function call (api: string, token: string | null, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${api}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token !== null ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const json = await response.json() as any
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

/** A few tickets with replies and notes, a canned response and an article, so the screens have content. */
async function populate (api: string): Promise<void> {
  const login = async (email: string, password: string) => (await call(api, null, 'POST', '/auth/login', { email, password })).data.token as string
  const admin = await login('admin@example.com', 'admin-password')
  const agent = await login('agent@example.com', 'agent-password')
  const customer = await login('customer@example.com', 'customer-password')
  const categories = (await call(api, admin, 'GET', '/categories')).data as Array<{ id: number }>
  const category = categories[0]?.id ?? (await call(api, admin, 'POST', '/categories', { name: 'General' })).data.id
  const field = (await call(api, admin, 'POST', '/fields', { title: 'Operating system', type: 'select-box', options: ['Linux', 'macOS', 'Windows'], required: false, categories: [category] })).data.id
  await call(api, admin, 'PUT', '/agents/2/categories', { categories: [category] }).catch(() => {})
  await call(api, admin, 'POST', '/canned-responses', { name: 'Password reset', body: '<p>Hello {{customer.first_name}}, use Forgot password on the login page.</p>', global: true })
  for (const title of ['Cannot log in', 'Invoice shows the wrong VAT number', 'Export to CSV fails', 'Feature request: dark mode']) {
    const ticket = (await call(api, customer, 'POST', '/tickets', { category, title, body: `<p>${title}. Steps: open the page, click the button.</p>`, fields: { [field]: 'Linux' } })).data.id
    await call(api, agent, 'POST', `/tickets/${ticket}/comments`, { body: '<p>Thanks, we are looking into it.</p>', type: 1, private: false })
    await call(api, agent, 'POST', `/tickets/${ticket}/comments`, { body: '<p>Looks like the session bug from last week.</p>', type: 2, private: false })
  }
  const collection = (await call(api, admin, 'POST', '/article-collections', { category_id: category, name: 'Getting started', visibility: 1 })).data.id
  await call(api, admin, 'POST', '/articles', { title: 'Resetting your password', body: '<p>Use Forgot password.</p>', category, collection, status: 'published' })
  await call(api, admin, 'POST', '/articles', { title: 'Billing FAQ (draft)', body: '<p>Soon.</p>', category, collection, status: 'draft' })
}

export async function startPreview (): Promise<Preview> {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-web-'))
  const { child, url: api } = await startHelpdesk(dir)
  if (process.env.PREVIEW_EMPTY !== '1') await populate(api)
  if (process.env.PREVIEW_PROXY !== '1') return { url: api, api, close: async () => { child.kill() } }
  const server = staticServer(api)
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    api,
    close: async () => {
      child.kill()
      await new Promise<void>((ok) => server.close(() => { ok() }))
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const preview = await startPreview()
  console.log(JSON.stringify({ url: preview.url, api: preview.api }))
  process.on('SIGTERM', () => { void preview.close().then(() => process.exit(0)) })
  process.on('SIGINT', () => { void preview.close().then(() => process.exit(0)) })
}
