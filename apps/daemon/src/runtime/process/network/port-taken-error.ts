/** A server's ports cannot be published: another running server (or another program) on this node holds one. */
export class PortTakenError extends Error {
  override name = 'PortTakenError';
}
