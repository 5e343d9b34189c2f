import { buildHostApp } from './app.js'

const { app } = await buildHostApp({ databaseUrl: process.env.HELPDESK_DATABASE_URL ?? 'sqlite:./example.sqlite' })
const address = await app.listen({ port: Number(process.env.PORT ?? 3001) })
console.log(`Host app on ${address}; POST /login {"username":"bob","password":"bob-pass"}, then use ${address}/support/api`)
