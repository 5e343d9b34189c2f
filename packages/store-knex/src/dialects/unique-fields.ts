/** Unique indexes and the request field each protects, for turning a violation into a 422. */
export const uniqueIndexFields: Record<string, string> = {
  users_email_unique: 'email',
  api_tokens_token_hash_unique: 'token',
  articles_slug_unique: 'slug',
  tags_name_unique: 'name',
  sso_providers_slug_unique: 'slug',
  sso_identities_provider_id_sub_unique: 'sub'
}

export function fieldForIndex (indexOrConstraint: string | undefined): string | null {
  if (indexOrConstraint === undefined) return null
  return uniqueIndexFields[indexOrConstraint] ?? null
}

export function uniqueMessage (field: string): string {
  return `The ${field.replace(/_/g, ' ')} has already been taken.`
}
