import { CreateApplicationKey } from '@/features/admin-api-keys/components/create-application-key';

export default function AdminApiKeyNewRoute() {
  return <CreateApplicationKey />;
}
