import FindMyWay from 'find-my-way';
import type { FastifyInstance, HTTPMethods } from 'fastify';

type Method = HTTPMethods;

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
      if (router.find(method as FindMyWay.HTTPMethod, path)) allowed.push(method);
    }
    return allowed.sort();
  }

  private add(method: Method, url: string): void {
    let router = this.byMethod.get(method);
    if (!router) {
      router = FindMyWay({ ignoreTrailingSlash: true });
      this.byMethod.set(method, router);
    }
    if (!router.find(method as FindMyWay.HTTPMethod, url)) router.on(method as FindMyWay.HTTPMethod, url, () => undefined);
  }
}
