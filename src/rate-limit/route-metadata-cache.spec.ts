import { SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteMetadataCache } from './route-metadata-cache';

@SetMetadata('limit', 10)
@SetMetadata('ttl', 60)
class Routes {
  @SetMetadata('limit', 5)
  overridden(): void {}

  inherited(): void {}
}

class MoreRoutes extends Routes {}

describe('RouteMetadataCache', () => {
  const handlers = [Routes.prototype.overridden, Routes.prototype.inherited];
  const cases = handlers.flatMap((handler) => [Routes, MoreRoutes].flatMap((classRef) => ['limit', 'ttl', 'absent'].map((key) => ({ handler, classRef, key }))));

  it('answers getAllAndOverride as Nest\'s Reflector does, for each handler, class and key', () => {
    const cached = new RouteMetadataCache();
    const plain = new Reflector();
    for (let pass = 0; pass < 2; pass++) {
      for (const { handler, classRef, key } of cases) {
        expect(cached.getAllAndOverride(key, [handler, classRef])).toBe(plain.getAllAndOverride(key, [handler, classRef]));
      }
    }
    expect(cached.getAllAndOverride('limit', [Routes.prototype.overridden, Routes])).toBe(5);
    expect(cached.getAllAndOverride('limit', [Routes.prototype.inherited, Routes])).toBe(10);
  });

  it('reads the metadata once per handler, class and key', () => {
    const cached = new RouteMetadataCache();
    const read = jest.spyOn(Reflect, 'getMetadata');
    try {
      for (let pass = 0; pass < 3; pass++) cached.getAllAndOverride('limit', [Routes.prototype.overridden, Routes]);
      expect(read).toHaveBeenCalledTimes(1); // the handler's own answer; the class is not asked
      read.mockClear();
      for (let pass = 0; pass < 3; pass++) cached.getAllAndOverride('absent', [Routes.prototype.inherited, MoreRoutes]);
      expect(read).toHaveBeenCalledTimes(2);
    } finally {
      read.mockRestore();
    }
  });
});
