import { MountPage } from '@/features/admin-mounts/components/mount-pages';

export default function AdminMountRoute() {
  return <MountPage />;
}
