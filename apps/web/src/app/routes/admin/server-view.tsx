import { ServerView } from '@/features/admin-servers/components/server-view';

export default function AdminServerViewRoute() {
  return <ServerView />;
}
