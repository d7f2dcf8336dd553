import { Overview } from '@/features/admin-overview/components/overview';

export default function AdminOverviewRoute() {
  return <Overview />;
}
