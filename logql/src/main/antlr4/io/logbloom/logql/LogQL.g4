/*
 * LogQL grammar for Logbloom, written from Loki's LogQL documentation (pkg/logql/syntax is the
 * reference for semantics). The generated parser is converted to our own AST by AstBuilder.
 */
grammar LogQL;

root : expr EOF ;

expr
    : logExpr
    | sampleExpr
    ;

logExpr
    : selector pipelineStage* unwrap? range?
    | '(' logExpr ')'
    ;

selector : '{' (matcher (',' matcher)*)? '}' ;

matcher : identifier op=('=' | '!=' | '=~' | '!~') string ;

pipelineStage
    : lineFilter                                 # lineFilterStage
    | '|' parserStage                            # parserPipelineStage
    | '|' labelFilter                            # labelFilterStage
    ;

lineFilter : op=('|=' | '!=' | '|~' | '!~' | '|>' | '!>') filterTerm (OR filterTerm)* ;

filterTerm
    : string
    | IP '(' string ')'
    ;

parserStage
    : JSON (labelExtraction (',' labelExtraction)*)?          # jsonStage
    | LOGFMT FLAG* (labelExtraction (',' labelExtraction)*)?  # logfmtStage
    | REGEXP string                                           # regexpStage
    | PATTERN string                                          # patternStage
    | UNPACK                                                  # unpackStage
    | LINE_FORMAT string                                      # lineFormatStage
    | LABEL_FORMAT labelFormat (',' labelFormat)*             # labelFormatStage
    | DROP labelSelect (',' labelSelect)*                     # dropStage
    | KEEP labelSelect (',' labelSelect)*                     # keepStage
    | DECOLORIZE                                              # decolorizeStage
    ;

labelExtraction : identifier ('=' string)? ;

labelFormat : identifier '=' (identifier | string) ;

labelSelect : identifier (op=('=' | '!=' | '=~' | '!~') string)? ;

labelFilter
    : '(' labelFilter ')'                                                      # parenFilter
    | labelFilter op=(AND | OR | ',')? labelFilter                             # binaryFilter
    | identifier op=('=' | '!=') IP '(' string ')'                             # ipFilter
    | identifier op=('=' | '!=' | '=~' | '!~') string                          # stringFilter
    | identifier op=('==' | '=' | '!=' | '>' | '>=' | '<' | '<=') signedNumber # numberFilter
    | identifier op=('==' | '=' | '!=' | '>' | '>=' | '<' | '<=') neg='-'? DURATION # durationFilter
    | identifier op=('==' | '=' | '!=' | '>' | '>=' | '<' | '<=') BYTES        # bytesFilter
    ;

signedNumber : ('-' | '+')? NUMBER ;

unwrap : '|' UNWRAP (identifier | conv=(DURATION_CONV | DURATION_SECONDS_CONV | BYTES_CONV) '(' identifier ')') ('|' labelFilter)* ;

logRange
    : selector pipelineStage* unwrap? range offset?
    | selector range offset? pipelineStage* unwrap?
    | '(' selector pipelineStage* unwrap? ')' range offset?
    | '(' logRange ')'
    ;

range : '[' DURATION ']' ;

offset : OFFSET neg='-'? DURATION ;

sampleExpr
    : <assoc=right> sampleExpr op='^' binModifiers sampleExpr                        # powExpr
    | sampleExpr op=('*' | '/' | '%') binModifiers sampleExpr                      # mulExpr
    | sampleExpr op=('+' | '-') binModifiers sampleExpr                            # addExpr
    | sampleExpr op=('==' | '!=' | '>' | '>=' | '<' | '<=') binModifiers sampleExpr # compareExpr
    | sampleExpr op=(AND | UNLESS) binModifiers sampleExpr                         # andUnlessExpr
    | sampleExpr op=OR binModifiers sampleExpr                                     # orExpr
    | rangeOp '(' (signedNumber ',')? logRange ')' grouping?                      # rangeAggregation
    | vectorOp grouping? '(' (signedNumber ',')? sampleExpr ')' grouping?          # vectorAggregation
    | LABEL_REPLACE '(' sampleExpr ',' string ',' string ',' string ',' string ')' # labelReplace
    | VECTOR '(' signedNumber ')'                                                  # vectorLiteral
    | sign=('+' | '-')? NUMBER                                                     # numberLiteral
    | '(' sampleExpr ')'                                                           # parenSample
    ;

binModifiers : BOOL? (matchKind=(ON | IGNORING) '(' matchLabels=labelList? ')' (card=(GROUP_LEFT | GROUP_RIGHT) ('(' includeLabels=labelList? ')')?)?)? ;

grouping : kind=(BY | WITHOUT) '(' labelList? ')' ;

labelList : identifier (',' identifier)* ;

rangeOp
    : COUNT_OVER_TIME | RATE | RATE_COUNTER | BYTES_RATE | BYTES_OVER_TIME | ABSENT_OVER_TIME
    | SUM_OVER_TIME | AVG_OVER_TIME | MIN_OVER_TIME | MAX_OVER_TIME | STDVAR_OVER_TIME
    | STDDEV_OVER_TIME | QUANTILE_OVER_TIME | FIRST_OVER_TIME | LAST_OVER_TIME
    ;

vectorOp : SUM | AVG | MIN | MAX | COUNT | STDDEV | STDVAR | TOPK | BOTTOMK | SORT | SORT_DESC ;

string : STRING ;

// Keywords are reserved only where the grammar needs them: everywhere a label name is expected
// they are accepted as plain identifiers (Loki allows labels named `rate`, `json`, `count`...).
identifier
    : IDENTIFIER | BY | WITHOUT | BOOL | ON | IGNORING | GROUP_LEFT | GROUP_RIGHT | OFFSET
    | JSON | LOGFMT | REGEXP | PATTERN | UNPACK | LINE_FORMAT | LABEL_FORMAT | DROP | KEEP
    | DECOLORIZE | IP | DURATION_CONV | DURATION_SECONDS_CONV | BYTES_CONV | VECTOR | LABEL_REPLACE
    | COUNT_OVER_TIME | RATE | RATE_COUNTER | BYTES_RATE | BYTES_OVER_TIME | ABSENT_OVER_TIME
    | SUM_OVER_TIME | AVG_OVER_TIME | MIN_OVER_TIME | MAX_OVER_TIME | STDVAR_OVER_TIME
    | STDDEV_OVER_TIME | QUANTILE_OVER_TIME | FIRST_OVER_TIME | LAST_OVER_TIME
    | SUM | AVG | MIN | MAX | COUNT | STDDEV | STDVAR | TOPK | BOTTOMK | SORT | SORT_DESC
    ;

// ---- lexer ----
OR : 'or' ;
AND : 'and' ;
UNLESS : 'unless' ;
BY : 'by' ;
WITHOUT : 'without' ;
BOOL : 'bool' ;
ON : 'on' ;
IGNORING : 'ignoring' ;
GROUP_LEFT : 'group_left' ;
GROUP_RIGHT : 'group_right' ;
OFFSET : 'offset' ;
JSON : 'json' ;
LOGFMT : 'logfmt' ;
REGEXP : 'regexp' ;
PATTERN : 'pattern' ;
UNPACK : 'unpack' ;
LINE_FORMAT : 'line_format' ;
LABEL_FORMAT : 'label_format' ;
DROP : 'drop' ;
KEEP : 'keep' ;
DECOLORIZE : 'decolorize' ;
UNWRAP : 'unwrap' ;
IP : 'ip' ;
DURATION_CONV : 'duration' ;
DURATION_SECONDS_CONV : 'duration_seconds' ;
BYTES_CONV : 'bytes' ;
VECTOR : 'vector' ;
LABEL_REPLACE : 'label_replace' ;
COUNT_OVER_TIME : 'count_over_time' ;
RATE : 'rate' ;
RATE_COUNTER : 'rate_counter' ;
BYTES_RATE : 'bytes_rate' ;
BYTES_OVER_TIME : 'bytes_over_time' ;
ABSENT_OVER_TIME : 'absent_over_time' ;
SUM_OVER_TIME : 'sum_over_time' ;
AVG_OVER_TIME : 'avg_over_time' ;
MIN_OVER_TIME : 'min_over_time' ;
MAX_OVER_TIME : 'max_over_time' ;
STDVAR_OVER_TIME : 'stdvar_over_time' ;
STDDEV_OVER_TIME : 'stddev_over_time' ;
QUANTILE_OVER_TIME : 'quantile_over_time' ;
FIRST_OVER_TIME : 'first_over_time' ;
LAST_OVER_TIME : 'last_over_time' ;
SUM : 'sum' ;
AVG : 'avg' ;
MIN : 'min' ;
MAX : 'max' ;
COUNT : 'count' ;
STDDEV : 'stddev' ;
STDVAR : 'stdvar' ;
TOPK : 'topk' ;
BOTTOMK : 'bottomk' ;
SORT : 'sort' ;
SORT_DESC : 'sort_desc' ;

FLAG : '--' [a-z] [a-z-]* ;

DURATION : (DIGITS ('.' DIGITS)? DURATION_UNIT)+ ;
BYTES : DIGITS ('.' DIGITS)? BYTES_UNIT ;
NUMBER
    : DIGITS ('.' DIGITS?)? ([eE] [+-]? DIGITS)?
    | '.' DIGITS ([eE] [+-]? DIGITS)?
    | '0' [xX] [0-9a-fA-F]+
    | 'NaN' | 'Inf'
    ;

IDENTIFIER : [a-zA-Z_] [a-zA-Z0-9_]* ;

STRING
    : '"' (~["\\\r\n] | '\\' .)* '"'
    | '`' ~[`]* '`'
    ;

PIPE_EXACT : '|=' ;
PIPE_MATCH : '|~' ;
PIPE_PATTERN : '|>' ;
NOT_PATTERN : '!>' ;
PIPE : '|' ;
EQ_REGEX : '=~' ;
NOT_REGEX : '!~' ;
CMP_EQ : '==' ;
NEQ : '!=' ;
GTE : '>=' ;
LTE : '<=' ;
GT : '>' ;
LT : '<' ;
EQ : '=' ;
LBRACE : '{' ;
RBRACE : '}' ;
LPAREN : '(' ;
RPAREN : ')' ;
LBRACKET : '[' ;
RBRACKET : ']' ;
COMMA : ',' ;
PLUS : '+' ;
MINUS : '-' ;
STAR : '*' ;
SLASH : '/' ;
PERCENT : '%' ;
CARET : '^' ;

COMMENT : '#' ~[\r\n]* -> skip ;
WS : [ \t\r\n]+ -> skip ;

fragment DIGITS : [0-9]+ ;
fragment DURATION_UNIT : 'ns' | 'us' | 'µs' | 'ms' | 's' | 'm' | 'h' | 'd' | 'w' | 'y' ;
fragment BYTES_UNIT : [bB] | [kKmMgGtTpPeE] [iI]? [bB] ;
