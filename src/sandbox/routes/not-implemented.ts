/** Route records of endpoints of the spec the sandbox does not serve yet. */
import { HttpError } from '../http/errors.js';
import type { Route } from '../http/router.js';

/**
 * A route answered 501 `not_implemented` (the server does so before authentication, seeing `notImplemented`; the
 * handler throws the same should it ever be called). `status` defaults to 200.
 */
export function notImplemented(route: Omit<Route, 'handler' | 'notImplemented' | 'status'> & { status?: Route['status'] }): Route {
  return {
    status: 200,
    ...route,
    notImplemented: true,
    handler: () => {
      throw new HttpError(501, 'not_implemented', `The sandbox does not serve ${route.method} ${route.pattern} yet.`);
    },
  };
}
