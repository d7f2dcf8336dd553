import {
  type AdminArea,
  type AdminPermission,
  adminAreas,
  adminPermissions,
  permissionFor,
} from '@aerie/shared/admin-roles/admin-permissions';
import { useTranslation } from 'react-i18next';

interface PermissionGridProps {
  value: readonly AdminPermission[];
  onChange: (permissions: AdminPermission[]) => void;
  /** Whether the viewer may tick or untick this permission; one they may not keeps its state. */
  isEditable: (permission: AdminPermission) => boolean;
  /** Ties the table to the hint or error under it. */
  describedBy?: string;
}

const checkboxClasses =
  'size-4 rounded border-ink-600 bg-ink-900 accent-brand-500 disabled:cursor-not-allowed disabled:opacity-50';

/**
 * A row per admin area with its Read and Write boxes (the audit log has Read only: nothing writes it but the changes
 * it records). Write never implies read, as on the panel, so each box stands alone.
 */
export function PermissionGrid({ value, onChange, isEditable, describedBy }: PermissionGridProps) {
  const { t } = useTranslation('admin');
  const held = new Set(value);

  const toggle = (permission: AdminPermission, checked: boolean) => {
    const next = new Set(held);
    if (checked) next.add(permission);
    else next.delete(permission);
    // The catalogue's order, so the body the panel gets does not depend on the order of the clicks.
    onChange(adminPermissions.filter((item) => next.has(item)));
  };

  const box = (area: AdminArea, write: boolean) => {
    const permission = permissionFor(area, write);
    if (!adminPermissions.includes(permission)) return null;
    const label = t(write ? 'roles.write_area' : 'roles.read_area', { area: t(`roles.areas.${area}`) });
    return (
      <input
        type="checkbox"
        className={checkboxClasses}
        aria-label={label}
        title={label}
        checked={held.has(permission)}
        disabled={!isEditable(permission)}
        onChange={(event) => toggle(permission, event.target.checked)}
      />
    );
  };

  return (
    <div className="overflow-x-auto rounded-lg border border-ink-800">
      <table className="w-full text-sm" aria-describedby={describedBy}>
        <caption className="sr-only">{t('roles.permissions')}</caption>
        <thead className="border-b border-ink-800 text-xs uppercase tracking-wider text-ink-400">
          <tr>
            <th scope="col" className="px-4 py-2 text-start font-semibold">
              {t('roles.area')}
            </th>
            <th scope="col" className="w-24 px-4 py-2 text-center font-semibold">
              {t('roles.read')}
            </th>
            <th scope="col" className="w-24 px-4 py-2 text-center font-semibold">
              {t('roles.write')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-800">
          {adminAreas.map((area) => (
            <tr key={area} className="hover:bg-ink-800/40">
              <th scope="row" className="px-4 py-2 text-start font-medium text-ink-200">
                {t(`roles.areas.${area}`)}
              </th>
              <td className="px-4 py-2 text-center">{box(area, false)}</td>
              <td className="px-4 py-2 text-center">{box(area, true)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
