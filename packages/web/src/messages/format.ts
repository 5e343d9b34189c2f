/** Replaces `{name}` tokens in a message with the given parameters; unknown tokens stay as they are. */
export function interpolate (message: string, params?: Record<string, string | number>): string {
  if (params === undefined) return message
  return message.replace(/\{(\w+)\}/g, (token, name: string) => {
    const value = params[name]
    return value === undefined ? token : String(value)
  })
}
