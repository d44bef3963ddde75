import { formatTime } from './format';

/** A timestamp in the reader's words, the exact ISO value on hover and for machines. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  return (
    <time dateTime={value} title={value}>
      {formatTime(value)}
    </time>
  );
}
