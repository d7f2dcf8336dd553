import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * `zodResolver(schema)` whose schema module (and with it zod, ~25 kB gzip) is fetched at the form's first
 * validation, not with the page: the sign-in pages show at once and their checks and messages stay the shared
 * schemas' own. react-hook-form awaits resolvers anyway, so the form behaves the same; a failed download is tried
 * again at the next validation.
 */
export function lazyZodResolver<T extends FieldValues>(
  loadSchema: () => Promise<ZodType<unknown, FieldValues>>,
): Resolver<T> {
  let loading: Promise<Resolver<T>> | undefined;
  return async (values, context, options) => {
    if (!loading) {
      const started = Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
        ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as Resolver<T>,
      );
      loading = started;
      started.catch(() => {
        if (loading === started) loading = undefined;
      });
    }
    return (await loading)(values, context, options);
  };
}
