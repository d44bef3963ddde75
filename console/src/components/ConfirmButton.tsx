import { Button, ButtonProps, Group, MantineColor, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ReactNode } from 'react';
import { useSend } from '../api/use-send';
import { ErrorAlert } from './ErrorAlert';

interface ConfirmButtonProps extends ButtonProps {
  /** The question in the dialog's title. */
  title: ReactNode;
  message: ReactNode;
  confirmLabel: string;
  /** The confirming button's colour: red for what cannot be undone (the default). */
  confirmColor?: MantineColor;
  onConfirm: () => Promise<unknown>;
  children: ReactNode;
  'aria-label'?: string;
}

/** A button that asks first (revoke, delete, disable, replay), and shows the service's answer if it refuses. */
export function ConfirmButton({ title, message, confirmLabel, confirmColor = 'red', onConfirm, children, ...button }: ConfirmButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const { send: confirm, busy, error, clearError } = useSend(async () => {
    await onConfirm();
    close();
  });

  return (
    <>
      <Button
        color="red"
        variant="outline"
        size="xs"
        {...button}
        onClick={() => {
          clearError(); // the last attempt's refusal is not this one's
          open();
        }}
      >
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          <Text size="sm" component="div">
            {message}
          </Text>
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color={confirmColor} loading={busy} onClick={confirm}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
