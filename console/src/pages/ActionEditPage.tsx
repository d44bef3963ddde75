import { Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { put } from '../api/client';
import { ActionForm } from '../components/ActionForm';
import { PageTitle } from '../components/PageTitle';
import { useStillHere } from '../use-still-here';
import { useAction } from './tenant-context';

export function ActionEditPage() {
  const { action, actionBase, reloadAction } = useAction();
  const navigate = useNavigate();
  const stillHere = useStillHere();
  return (
    <Stack>
      <PageTitle order={3} title="Edit" description="A changed webhook URL gets the registration test first; if it fails, nothing changes." />
      <ActionForm
        action={action}
        submitLabel="Save changes"
        onCancel={() => navigate(actionBase)}
        onSubmit={async ({ description, webhook_url, json_schema }) => {
          await put(actionBase, { description, webhook_url, json_schema });
          await reloadAction();
          notifications.show({ color: 'teal', title: 'Action saved', message: action.name });
          if (stillHere()) navigate(actionBase);
        }}
      />
    </Stack>
  );
}
