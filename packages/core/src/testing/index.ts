/**
 * `@helpdesk/core/testing`: what a storage adapter runs to prove it keeps the
 * store's contract, and helpers the packages' own tests share. Imports
 * `node:test`; not part of the main entry point.
 */
export { runStoreConformance, type ConformanceClock, type ConformanceContext, type ConformanceStore, type StoreConformanceOptions } from './store-conformance.js'
export { eventually, type EventuallyOptions } from './eventually.js'
