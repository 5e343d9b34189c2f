import { createReceiver } from './receiver.js'

const secret = process.argv[2]
if (secret === undefined || secret === '') {
  console.error('Usage: pnpm start <secret>   (the secret `helpdesk webhooks:create` printed)')
  process.exit(1)
}
const port = Number(process.env.PORT ?? 4000)
createReceiver({
  secrets: [secret],
  onEvent: (event) => { console.log(`${event.created_at} ${event.type} #${event.id}`) }
}).listen(port, '127.0.0.1', () => { console.log(`Receiving help-desk webhooks on http://127.0.0.1:${port}/`) })
