import type {
  CheckpointBody,
  ForgotPasswordBody,
  ForgotPasswordResponse,
  LoginBody,
  LoginResponse,
  ResetPasswordBody,
  ResetPasswordResponse,
} from '@aerie/shared/auth/auth-forms';
import { apiClient } from '@/lib/api-client';

export type LoginResult = LoginResponse['data'];

/**
 * Both sign-in steps answer `{data: {complete, …}}`; anything else means the panel is not the one we expect. The
 * message comes from the shared form messages, whose module (with zod) loads only in that case.
 */
async function readLoginResponse(response: unknown): Promise<LoginResult> {
  const data =
    typeof response === 'object' && response !== null ? (response as LoginResponse).data : undefined;
  if (typeof data !== 'object' || data === null) {
    throw new Error((await import('@aerie/shared/auth/auth-forms')).authMessages.loginNotObject);
  }
  return data;
}

/** POST /auth/login: signs in, or answers with a confirmation token when the account has two-factor on. */
export async function login(body: LoginBody): Promise<LoginResult> {
  return readLoginResponse(await apiClient.post<unknown>('/auth/login', body));
}

/** POST /auth/login/checkpoint with a code from the authenticator app or a recovery code. */
export async function loginCheckpoint(
  confirmationToken: string,
  answer: { authenticationCode: string } | { recoveryToken: string },
): Promise<LoginResult> {
  const body: CheckpointBody = { confirmation_token: confirmationToken };
  // The recovery token is sent only when one was typed (spec §7); the panel then explains what is missing.
  if ('recoveryToken' in answer) {
    if (answer.recoveryToken !== '') body.recovery_token = answer.recoveryToken;
  } else {
    body.authentication_code = answer.authenticationCode;
  }
  return readLoginResponse(await apiClient.post<unknown>('/auth/login/checkpoint', body));
}

/** POST /auth/password: the panel always answers with the same status text. */
export async function requestPasswordResetEmail(body: ForgotPasswordBody): Promise<string> {
  const response = await apiClient.post<ForgotPasswordResponse>('/auth/password', body);
  return response.status;
}

/** POST /auth/password/reset with the token from the mailed link. */
export async function performPasswordReset(body: ResetPasswordBody): Promise<ResetPasswordResponse> {
  return await apiClient.post<ResetPasswordResponse>('/auth/password/reset', body);
}
