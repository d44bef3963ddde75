import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { InvalidTokenError } from '../common/common.errors';
import { DomainError } from '../common/domain.error';

/** Every way a bearer token can fail is the same 401 `Invalid token`; a lost database stays a 503. */
@Injectable()
export class BearerAuthGuard extends AuthGuard('jwt') {
  override handleRequest<TUser>(error: unknown, user: TUser): TUser {
    if (error && !(error instanceof DomainError)) throw error;
    if (error || !user) throw new InvalidTokenError();
    return user;
  }
}
