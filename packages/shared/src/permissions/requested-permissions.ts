declare const normalised: unique symbol;

/**
 * Permission strings as a request asks for them once its rules passed them: each trimmed (Laravel's TrimStrings)
 * and named once. Only `requestedPermissions` makes one, and the subuser bodies' rules call it, so a policy typed
 * with it weighs exactly the strings that get stored, never the body as sent (a `" file.delete"` the grant check
 * took for an unknown string was stored as `file.delete`).
 */
export type RequestedPermissions = readonly string[] & { readonly [normalised]: true };

export const requestedPermissions = (values: readonly string[]): RequestedPermissions =>
  [...new Set(values.map((value) => value.trim()))] as readonly string[] as RequestedPermissions;
