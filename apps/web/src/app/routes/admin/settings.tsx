import { AdminSettingsPage } from '@/features/admin-settings/components/settings-form';

export default function AdminSettingsRoute() {
  return <AdminSettingsPage />;
}
