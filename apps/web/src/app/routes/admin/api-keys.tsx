import { ApplicationKeysList } from '@/features/admin-api-keys/components/application-keys-list';

export default function AdminApiKeysRoute() {
  return <ApplicationKeysList />;
}
