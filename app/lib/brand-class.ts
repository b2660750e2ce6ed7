/**
 * The class `<html>` carries, beside its base theme's, when the brand is a custom colour: the
 * brand's stylesheet (`/brand-assets/<version>/theme.css`) sets every colour role for it. A module
 * of its own so the root (in every page's bundle) takes this one string, not the colour maths.
 */
export const CUSTOM_BRAND_CLASS = "brand-custom";
