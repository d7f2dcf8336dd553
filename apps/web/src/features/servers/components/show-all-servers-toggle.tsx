import { useTranslation } from 'react-i18next';
import { Switch } from '@/components/ui/switch';

interface ShowAllServersToggleProps {
  showAll: boolean;
  onChange: (showAll: boolean) => void;
}

/** Root admins switch the dashboard between their own servers and everyone else's. */
export function ShowAllServersToggle({ showAll, onChange }: ShowAllServersToggleProps) {
  const { t } = useTranslation('dashboard');
  return <Switch checked={showAll} onChange={onChange} label={showAll ? t('show_others') : t('show_own')} />;
}
