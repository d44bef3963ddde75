import { ConsoleLogger, Logger } from '@nestjs/common';
import pino from 'pino';
import { PinoNestLogger } from './pino-nest-logger';

/** Nest's Logger calls, as the application and Nest itself make them, arrive as pino JSON lines. */
describe('PinoNestLogger', () => {
  let lines: Record<string, unknown>[];
  let logger: Logger;

  beforeEach(() => {
    lines = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    const nest = new PinoNestLogger(pino({ level: 'info' }, stream));
    Logger.overrideLogger(nest);
    logger = new Logger('Context');
  });

  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  it('writes a text with its context and level', () => {
    logger.log('started');
    logger.warn('careful');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, context: 'Context', msg: 'started' }),
      expect.objectContaining({ level: 40, context: 'Context', msg: 'careful' }),
    ]);
  });

  it('keeps Nest\'s own start-up lines (one per module and route) at debug, and its other lines at info', () => {
    new Logger('RouterExplorer').log('Mapped {/api/v1/gateway/actions, GET} route');
    new Logger('InstanceLoader').log('AppModule dependencies initialized');
    new Logger('NestApplication').log('Nest application successfully started');
    expect(lines).toEqual([expect.objectContaining({ level: 30, context: 'NestApplication', msg: 'Nest application successfully started' })]);
  });

  it('merges an object and keeps the text after it', () => {
    logger.error({ reqId: 'r1', err: new Error('boom') }, 'unexpected failure');
    expect(lines[0]).toMatchObject({ level: 50, context: 'Context', reqId: 'r1', msg: 'unexpected failure', err: { message: 'boom' } });
  });

  it('reads Nest’s (message, stack, context) error contract', () => {
    const error = new Error('exploded');
    logger.error('handler failed', error.stack);
    expect(lines[0]).toMatchObject({ level: 50, context: 'Context', msg: 'handler failed', err: { stack: error.stack } });
  });

  it('logs an Error as its message with the error attached', () => {
    logger.error(new Error('plain'));
    expect(lines[0]).toMatchObject({ msg: 'plain', err: { message: 'plain' } });
  });

  it('writes nothing below the level', () => {
    logger.debug('hidden');
    logger.verbose('hidden');
    expect(lines).toEqual([]);
  });
});
