import FindMyWay from 'find-my-way';
import type { FastifyInstance, HTTPMethods } from 'fastify';

type Method = HTTPMethods;

/** The longest path parameter routed (an action name past 100 characters is a 404 of its own, not a router miss). */
export const MAX_PARAM_LENGTH = 16_384;

/**
 * Remembers every route Fastify registers, so a request that matches a known path with another method can be
 * answered 405 (with Allow) instead of Fastify's 404.
 */
export class RouteTable {
  private readonly byMethod = new Map<Method, FindMyWay.Instance<FindMyWay.HTTPVersion.V1>>();

  attach(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) this.add(method as Method, route.url);
    });
  }

  allowedMethods(url: string): Method[] {
    const path = url.split('?')[0];
    const allowed: Method[] = [];
    for (const [method, router] of this.byMethod) {
      const match = router.find(method as FindMyWay.HTTPMethod, path);
      // find-my-way lets a parameter match nothing ('/actions/'), where Fastify's routing did not: not a match.
      if (match && Object.values(match.params).every((value) => value !== '')) allowed.push(method);
    }
    return allowed.sort();
  }

  private add(method: Method, url: string): void {
    let router = this.byMethod.get(method);
    if (!router) {
      // Matching exactly as Fastify's router does: no trailing-slash forgiveness, the same parameter length.
      router = FindMyWay({ maxParamLength: MAX_PARAM_LENGTH });
      this.byMethod.set(method, router);
    }
    if (!router.find(method as FindMyWay.HTTPMethod, url)) router.on(method as FindMyWay.HTTPMethod, url, () => undefined);
  }
}
