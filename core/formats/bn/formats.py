# Bengali formats: Django's own (django/conf/locale/bn/formats.py), which has no datetime
# formats, so dates with a time fell back to the settings' US order ("11/29/2026 2:05 অপরাহ্ন").
# Here they are day first, as Bengali writes dates, with Django's Bengali 12-hour time and its
# পূর্বাহ্ন/অপরাহ্ন; numbers grouped as CLDR's Bengali (12,34,567). Latin digits: docs/i18n.md.
DATE_FORMAT = "j F, Y"
TIME_FORMAT = "g:i A"
DATETIME_FORMAT = "j F, Y g:i A"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "j M, Y"
SHORT_DATETIME_FORMAT = "j M, Y g:i A"
FIRST_DAY_OF_WEEK = 6  # Saturday
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%d/%m/%y", "%d-%m-%Y", "%d-%m-%y"]
TIME_INPUT_FORMATS = ["%H:%M:%S", "%H:%M"]
DATETIME_INPUT_FORMATS = ["%d/%m/%Y %H:%M:%S", "%d/%m/%Y %H:%M"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = (3, 2, 0)
