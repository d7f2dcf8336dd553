import { ServersList } from '@/features/admin-servers/components/servers-list';

export default function AdminServersRoute() {
  return <ServersList />;
}
