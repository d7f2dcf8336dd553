/** A log line: a message, or a context object (`{ err }`) and a message, as pino takes them. */
type LogFn = (contextOrMessage: object | string, message?: string) => void;

/**
 * The logger a service takes: the shape of Fastify's (pino's), declared here so that services never import Fastify
 * and tests can pass any object with these three methods.
 */
export interface Log {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}
