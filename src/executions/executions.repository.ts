import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan, Repository } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { Execution } from './execution.entity';

@Injectable()
export class ExecutionsRepository {
  private readonly executions: Repository<Execution>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.executions = dataSource.getRepository(Execution);
  }

  insert(execution: Execution): Promise<unknown> {
    return this.executions.insert(execution);
  }

  /** Newest first. */
  listByAction(tenantId: TenantId, actionId: string, limit: number): Promise<Execution[]> {
    return this.executions.find({ where: { tenantId, actionId }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  async deleteOlderThan(cutoff: Date): Promise<number> {
    const result = await this.executions.delete({ createdAt: LessThan(cutoff) });
    return result.affected ?? 0;
  }
}
