import { MountsList } from '@/features/admin-mounts/components/mounts-list';

export default function AdminMountsRoute() {
  return <MountsList />;
}
