import { NewMountPage } from '@/features/admin-mounts/components/mount-pages';

export default function AdminMountNewRoute() {
  return <NewMountPage />;
}
