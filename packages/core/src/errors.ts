/**
 * Domain errors. Each carries the HTTP-ish status the contract gives it, so any
 * door (HTTP, CLI) can translate it without knowing the rule that raised it.
 * Every class is listed once in `helpdeskErrors` under its code.
 */
export type FieldErrors = Record<string, string[]>

export class HelpdeskError extends Error {
  readonly statusCode: number
  /** Stable and machine-readable: one of the keys of `helpdeskErrors`. */
  readonly code: string
  constructor (message: string, statusCode: number, code: string) {
    super(message)
    this.name = new.target.name
    this.statusCode = statusCode
    this.code = code
  }
}

/** 422: one or more fields are invalid. `errors` is keyed by dotted field path. */
export class ValidationError extends HelpdeskError {
  readonly errors: FieldErrors
  constructor (errors: FieldErrors, message?: string) {
    super(message ?? firstMessage(errors), 422, 'HD_VALIDATION')
    this.errors = errors
  }

  static field (field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] })
  }
}

function firstMessage (errors: FieldErrors): string {
  const all = Object.values(errors).flat()
  const first = all[0] ?? 'The given data was invalid.'
  return all.length > 1 ? `${first} (and ${all.length - 1} more error${all.length > 2 ? 's' : ''})` : first
}

/**
 * Runs `check`, moving a ValidationError's field errors into `errors` (undefined then), so a
 * validator reports every problem at once; any other error is thrown on.
 */
export function collectFieldErrors<T> (errors: FieldErrors, check: () => T): T | undefined {
  try {
    return check()
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    Object.assign(errors, error.errors)
    return undefined
  }
}

/** 400: the list query names an include, sort or filter the resource does not declare. */
export class BadQueryError extends HelpdeskError {
  constructor (message: string) { super(message, 400, 'HD_BAD_QUERY') }
}

/** 401: no credential, or one that is unknown, revoked or belongs to a banned user. */
export class UnauthenticatedError extends HelpdeskError {
  constructor (message = 'Unauthenticated.') { super(message, 401, 'HD_UNAUTHENTICATED') }
}

/** 403: the caller can see the resource but may not do this. */
export class ForbiddenError extends HelpdeskError {
  constructor (message = 'This action is unauthorized.') { super(message, 403, 'HD_FORBIDDEN') }
}

/** 404: missing, or invisible to the caller (existence is not leaked). */
export class NotFoundError extends HelpdeskError {
  constructor (resource = 'Resource') { super(`${resource} not found.`, 404, 'HD_NOT_FOUND') }
}

/** 409: the request was made against a state that has moved on (e.g. a reply drafted before others replied). */
export class ConflictError extends HelpdeskError {
  constructor (message = 'The resource changed since you last read it.') { super(message, 409, 'HD_CONFLICT') }
}

/** 413: an upload over the size limit. */
export class PayloadTooLargeError extends HelpdeskError {
  constructor (message = 'The file may not be greater than 30 MB.') { super(message, 413, 'HD_PAYLOAD_TOO_LARGE') }
}

/** 429: too many attempts of something counted per person (e.g. two-factor codes); `retryAfterSeconds` goes into `Retry-After`. */
export class TooManyRequestsError extends HelpdeskError {
  readonly retryAfterSeconds: number
  constructor (message = 'Too many requests. Please slow down.', retryAfterSeconds = 60) {
    super(message, 429, 'HD_TOO_MANY_REQUESTS')
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** 503: the database (or another required service) cannot be reached. */
export class UnavailableError extends HelpdeskError {
  constructor (message = 'The service is temporarily unavailable. Please try again shortly.') {
    super(message, 503, 'HD_UNAVAILABLE')
  }
}

/**
 * The error registry: every error the services raise, keyed by its code
 * (key equals `error.code`). Hosts that call the services directly match on
 * `error.code` or `instanceof`; docs/errors.md lists every code (a test
 * checks it against this object).
 */
export const helpdeskErrors = {
  HD_BAD_QUERY: BadQueryError,
  HD_UNAUTHENTICATED: UnauthenticatedError,
  HD_FORBIDDEN: ForbiddenError,
  HD_NOT_FOUND: NotFoundError,
  HD_CONFLICT: ConflictError,
  HD_PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  HD_TOO_MANY_REQUESTS: TooManyRequestsError,
  HD_VALIDATION: ValidationError,
  HD_UNAVAILABLE: UnavailableError
} as const

export type HelpdeskErrorCode = keyof typeof helpdeskErrors

/** Whether `error` is a help-desk error, optionally of one code: `isHelpdeskError(e, 'HD_NOT_FOUND')`. */
export function isHelpdeskError (error: unknown, code?: HelpdeskErrorCode): error is HelpdeskError {
  return error instanceof HelpdeskError && (code === undefined || error.code === code)
}
