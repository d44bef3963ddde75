import { PassThrough } from 'node:stream';
import { DatabaseSettings } from './database-settings';
import { DeadlineClient } from './query-deadline';

describe('DatabaseSettings', () => {
  it('gives every connection the in-process stream when this process runs the embedded database', () => {
    const connect = () => new PassThrough();
    const owned = new DatabaseSettings('postgres://postgres@127.0.0.1:5555/postgres', true, 1, 30_000, connect);
    expect(owned.poolOptions().stream).toBe(connect);
    expect(owned.clientOptions('listener').stream).toBe(connect);
  });

  it('connects over the network otherwise', () => {
    const server = new DatabaseSettings('postgres://postgres@db:5432/app', false, 10, 30_000);
    expect('stream' in server.poolOptions()).toBe(false);
    expect(server.clientOptions('listener').stream).toBeUndefined();
  });

  it("gives every connection the statement timeout, and the client a deadline a second longer, without pg's timer per query", () => {
    const settings = new DatabaseSettings('postgres://postgres@db:5432/app', false, 10, 30_000);
    const pool = settings.poolOptions();
    expect(pool).toMatchObject({ statement_timeout: 30_000, Client: DeadlineClient, queryDeadlineMs: 31_000 });
    expect('query_timeout' in pool).toBe(false);
    expect(settings.clientOptions('maintenance')).toMatchObject({ statement_timeout: 30_000, queryDeadlineMs: 31_000 });
    expect(settings.newClient('maintenance')).toBeInstanceOf(DeadlineClient);
  });
});
