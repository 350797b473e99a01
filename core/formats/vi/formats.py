# Vietnamese formats: Django's own (django/conf/locale/vi/formats.py), which sets the
# separators but no grouping, so counts came out as "1234". Grouped by three with a dot
# ("1.234 ván"), as Vietnamese writes counts; ratings are not grouped (docs/i18n.md).
DATE_FORMAT = r"\N\gà\y d \t\há\n\g n \nă\m Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = r"H:i \N\gà\y d \t\há\n\g n \nă\m Y"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d-m-Y"
SHORT_DATETIME_FORMAT = "H:i d-m-Y"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
