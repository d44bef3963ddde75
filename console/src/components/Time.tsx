import { formatTime } from './format';

/** A timestamp in the reader's words, the exact ISO value on hover and for machines; on one line, however narrow its cell. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  return (
    <time dateTime={value} title={value} style={{ whiteSpace: 'nowrap' }}>
      {formatTime(value)}
    </time>
  );
}
