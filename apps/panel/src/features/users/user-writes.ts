// What the users feature lets other features change on an account (sign-in, the account pages, invitations), each
// a function taking `db` or the caller's transaction, on top of its repository.

export {
  claimTotpStep,
  disableTotp,
  enableTotp,
  insertUser,
  lockUserRow,
  storePendingTotpSecret,
  updateEmail,
  updateLanguage,
  updatePasswordHash,
} from './users.repository';
