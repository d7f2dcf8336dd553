import { SettingsPage } from '@/features/admin-settings/components/settings-form';

export default function AdminSettingsRoute() {
  return <SettingsPage />;
}
