# Burmese date and number formats (Django ships none): day, month name, year, as Burmese
# calendars and news sites write dates in the Gregorian calendar; 24-hour times.
DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "j/n/Y"
SHORT_DATETIME_FORMAT = "j/n/Y H:i"
FIRST_DAY_OF_WEEK = 0  # Sunday
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
