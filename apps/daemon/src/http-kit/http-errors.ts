/** An error the routes answer with its own status and `{"error": message}`. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}

export const NOT_FOUND_MESSAGE = 'The requested resource does not exist on this instance.';
export const UNPARSABLE_BODY_MESSAGE =
  'The data passed in the request was not in a parsable format. Please try again.';
export const INTERNAL_ERROR_MESSAGE = 'An unexpected error was encountered while processing this request.';
