import { Box, Group } from '@mantine/core';
import { ReactNode } from 'react';

/**
 * For a TextInput's `inputContainer`: the form's button right of the input, in line with it whatever the label
 * and description above, and the field's error below both (a button beside the whole field would sink with it).
 * Mantine sets the input half an xs spacing below a description (`described`): the button follows it.
 */
export function besideInput(button: ReactNode, width: number, described = false) {
  return function InputWithButton(input: ReactNode) {
    return (
      <Group gap="sm" align="flex-start">
        <Box w={width} maw="100%">
          {input}
        </Box>
        <Box mt={described ? 'calc(var(--mantine-spacing-xs) / 2)' : 0}>{button}</Box>
      </Group>
    );
  };
}
