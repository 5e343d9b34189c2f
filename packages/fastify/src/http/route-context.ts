import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AvatarResolver, Helpdesk } from '@helpdesk/core'
import type { HelpdeskPluginOptions } from '../options.js'

/** The app type route modules receive: TypeBox-typed, inside the plugin's encapsulated context. */
export type HelpdeskApp = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>

/** What every route module is given. */
export interface RouteContext {
  helpdesk: Helpdesk
  avatar: AvatarResolver
  options: HelpdeskPluginOptions
  /** The login limit (per email and IP), one for every route that checks a password: they count against the same budget. */
  loginLimit: preHandlerAsyncHookHandler[]
}
