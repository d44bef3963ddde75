import { Alert, JsonInput, List, Text } from '@mantine/core';
import { IconCircleCheck, IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { Problem } from '../json-schema/problems';

/**
 * A JSON editor for an action's `json_schema` that lists what is wrong with it as you type (JSON syntax, the
 * draft's meta-schema, a top-level type other than "object"), before anything is sent.
 */
export function SchemaEditor({
  value,
  onChange,
  onProblems,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  onProblems: (count: number) => void;
  /** The service's refusal of this schema (what only its check finds), shown under the editor. */
  error?: string;
}) {
  const [problems, setProblems] = useState<Problem[] | undefined>();

  useEffect(() => {
    let current = true;
    // The checker carries the meta-schemas: loaded with the first check, not with the console.
    void import('../json-schema/schema-check').then(({ schemaProblems }) => {
      if (!current) return;
      const found = schemaProblems(value);
      setProblems(found);
      onProblems(found.length);
    });
    return () => {
      current = false;
    };
  }, [value, onProblems]);

  return (
    <div>
      <JsonInput
        label="JSON Schema of the parameters"
        description='Draft 2020-12 (or draft-07 with "$schema"); a top-level "type", if any, must be "object".'
        value={value}
        onChange={onChange}
        autosize
        minRows={10}
        maxRows={30}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        aria-describedby="schema-problems"
        error={error}
        required
      />
      <div id="schema-problems" aria-live="polite">
        {problems && problems.length > 0 && (
          <Alert mt="xs" color="red" variant="outline" icon={<IconAlertTriangle aria-hidden />} title={`${problems.length === 1 ? 'One problem' : `${problems.length} problems`} in this schema`} data-testid="schema-problems">
            <List size="sm" spacing={2}>
              {problems.map((problem, index) => (
                <List.Item key={index}>
                  <Text span ff="monospace" size="sm">
                    {problem.path || '(schema)'}
                  </Text>
                  : {problem.message}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        {problems && problems.length === 0 && (
          <Text size="sm" mt={4} c="teal.9">
            <IconCircleCheck size={14} aria-hidden style={{ verticalAlign: '-2px' }} /> Valid JSON Schema
          </Text>
        )}
      </div>
    </div>
  );
}
