import type { AppContext } from '@aerie/panel/app-context';
import type { User } from '@aerie/panel/features/users/user';
import { presentPageUser } from '@aerie/panel/features/users/user.presenter';
import { originOf } from '@aerie/panel/http/request-origin';
import type { PageUser } from '@aerie/shared/boot/page-globals';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rotateCsrf } from './csrf';

/**
 * The end of every sign-in, whatever proved who the user is (password, 2FA step, passkey, identity provider): a
 * fresh session, the success logged and the address remembered, a new CSRF token.
 * @returns what the sign-in answers carry (`{data: {complete: true, intended, user}}`)
 */
export async function completeSignIn(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<{ data: { complete: true; intended: string; user: PageUser } }> {
  await ctx.sessions.signIn(request, reply, user);
  await ctx.login.succeeded(user, originOf(request));
  rotateCsrf(reply);
  return {
    data: {
      complete: true,
      intended: '/',
      user: presentPageUser(user, await ctx.adminRoles.grantOf(user)),
    },
  };
}
