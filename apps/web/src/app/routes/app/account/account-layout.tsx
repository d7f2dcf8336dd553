import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { SubNavigation } from '@/components/layout/sub-navigation';
import { paths } from '@/config/paths';

export function AccountLayout() {
  const { t } = useTranslation('account');
  return (
    <>
      <SubNavigation
        label={t('overview.title')}
        items={[
          { to: paths.account, label: t('nav.settings'), end: true },
          { to: paths.accountApi, label: t('nav.api_credentials'), end: true },
          { to: paths.accountSsh, label: t('nav.ssh_keys'), end: true },
          { to: paths.accountActivity, label: t('nav.activity'), end: true },
        ]}
      />
      <Outlet />
    </>
  );
}
