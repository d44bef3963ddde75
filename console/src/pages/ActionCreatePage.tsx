import { Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { post } from '../api/client';
import type { Action } from '../api/types';
import { ActionForm } from '../components/ActionForm';
import { PageTitle } from '../components/PageTitle';
import { useStillHere } from '../use-still-here';
import { useTenant } from './tenant-context';

export function ActionCreatePage() {
  const { base } = useTenant();
  const navigate = useNavigate();
  const stillHere = useStillHere();
  return (
    <Stack>
      <PageTitle title="Register an action" description="The webhook receives a signed test POST before anything is stored." />
      <ActionForm
        submitLabel="Register action"
        onCancel={() => navigate(`${base}/actions`)}
        onSubmit={async (fields) => {
          const { action } = await post<{ action: Action }>(`${base}/actions`, fields);
          notifications.show({ color: 'teal', title: 'Action registered', message: `${action.name}: the webhook passed the registration test` });
          if (stillHere()) navigate(`${base}/actions/${action.name}`);
        }}
      />
    </Stack>
  );
}
