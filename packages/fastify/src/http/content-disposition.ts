/**
 * `Content-Disposition: attachment` for a file name from a user (RFC 6266):
 * an ASCII fallback in `filename` (quotes, backslashes, controls and
 * non-ASCII replaced) and the exact name in `filename*` (RFC 5987, UTF-8).
 */
export function attachmentDisposition (name: string): string {
  // eslint-disable-next-line no-control-regex
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
