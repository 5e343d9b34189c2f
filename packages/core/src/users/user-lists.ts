import { defineList } from '../list/list-spec.js'

export const customerList = defineList({
  resource: 'customers',
  includes: ['tickets-count', 'notes-count'],
  sorts: ['id'],
  defaultSort: 'id',
  keyTypes: { id: 'int' },
  partialFilters: ['first_name', 'last_name', 'email', 'company'],
  exactFilters: ['status']
})

export const agentList = defineList({
  resource: 'agents',
  includes: ['notes-count', 'assigned-categories-count', 'unresolved-tickets-count', 'resolved-tickets-count'],
  sorts: ['id'],
  defaultSort: 'id',
  keyTypes: { id: 'int' },
  partialFilters: ['first_name', 'last_name', 'email'],
  exactFilters: ['status']
})
