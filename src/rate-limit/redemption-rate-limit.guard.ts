import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RequestBudgets } from './request-budgets';

/** Portal-link redemptions per client address: a budget of their own, so they never crowd out token exchanges or sign-ins. */
@Injectable()
export class RedemptionRateLimitGuard implements CanActivate {
  constructor(private readonly budgets: RequestBudgets) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    await this.budgets.charge('redemption', `ip:${http.getRequest<{ ip: string }>().ip}`, http.getResponse<FastifyReply>());
    return true;
  }
}
