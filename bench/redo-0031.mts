// Local helper (not committed): re-applies migration 0031 on a cached bench database after its DDL changed.
import { createKnexStore } from '../packages/store-knex/dist/index.js'
const store = createKnexStore({ url: process.argv[2]! })
for (const table of ['report_state', 'report_daily', 'report_hourly', 'report_ticket_facts', 'ticket_channels']) await store.knex.schema.dropTableIfExists(table)
await store.knex('knex_migrations').where('name', '0031-reports').delete()
await store.migrate()
await store.close()
console.log('0031 re-applied')
