import { readBool, readDate, readNullableDate } from '@aerie/panel/db/dialect';
import type { UsersTable } from '@aerie/panel/db/schema';
import type { Selectable } from 'kysely';

/** A panel user as services see it: booleans and dates already normalised across dialects. */
export interface User {
  id: number;
  uuid: string;
  externalId: string | null;
  username: string;
  email: string;
  nameFirst: string | null;
  nameLast: string | null;
  passwordHash: string;
  language: string;
  rootAdmin: boolean;
  useTotp: boolean;
  /** TOTP seed sealed with the app key, or null. */
  totpSecret: string | null;
  totpAuthenticatedAt: Date | null;
  /** Last accepted TOTP time step; codes of that step or older are refused. */
  totpLastStep: number | null;
  gravatar: boolean;
  /** The admin role of an admin below root, or null. */
  adminRoleId: number | null;
  /** False for an account a sign-in provider created (its stored hash is of nothing anyone knows), until a reset. */
  hasPassword: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    uuid: row.uuid,
    externalId: row.external_id,
    username: row.username,
    email: row.email,
    nameFirst: row.name_first,
    nameLast: row.name_last,
    passwordHash: row.password,
    language: row.language,
    rootAdmin: readBool(row.root_admin),
    useTotp: readBool(row.use_totp),
    totpSecret: row.totp_secret,
    totpAuthenticatedAt: readNullableDate(row.totp_authenticated_at),
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    gravatar: readBool(row.gravatar),
    adminRoleId: row.admin_role_id == null ? null : Number(row.admin_role_id),
    hasPassword: readBool(row.has_password),
    createdAt: readDate(row.created_at),
    updatedAt: readDate(row.updated_at),
  };
}
